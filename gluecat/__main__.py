from gluecat.cli import app

app(prog_name="gluecat")
