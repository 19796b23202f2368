"""Lake Formation as code: LF-tag keys, their assignments and grants, planned by meaning."""
