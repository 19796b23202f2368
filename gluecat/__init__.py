"""gluecat: catalog-as-code for the AWS Glue Data Catalog."""

__version__ = "0.1.0"
