"""One module per `ingboard` subcommand (see host_tools/cli.py)."""
