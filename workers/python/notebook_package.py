"""IPython cell syntax for the sandbox: the transformer, the magics and the `!` commands (workers/python/README.md)."""
