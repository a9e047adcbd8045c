"""The package version, in a module of its own so that any module can import it without
importing the package ``__init__`` (which imports the pipeline: a hidden cycle)."""
__version__ = "0.2.0"
