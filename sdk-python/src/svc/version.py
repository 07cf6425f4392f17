"""The package's version, read by pyproject.toml and sent in the User-Agent."""

__version__ = "1.0.0"
