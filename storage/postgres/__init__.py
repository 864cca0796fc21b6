"""The PostgreSQL backend: several bot processes sharing one database (engine in ``storage.postgres.engine``)."""

from .url import check_url, is_url, redact

__all__ = ["check_url", "is_url", "redact"]
