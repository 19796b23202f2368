"""The embedded local Glue + S3 (moto server), made to honour Glue's real contract."""
