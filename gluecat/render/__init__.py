"""Read-only views of a Plan: human (rich), JSON and markdown."""
