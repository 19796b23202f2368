"""Table-format operations: Iceberg through pyiceberg, Delta through deltalake."""
