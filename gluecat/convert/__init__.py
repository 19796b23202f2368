"""Pure functions between the catalog model and Glue's API shapes, both directions."""
