"""The `gluecat` command line."""

from gluecat.cli.app import app

__all__ = ["app"]
