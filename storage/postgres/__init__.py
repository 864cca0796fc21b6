"""The PostgreSQL backend: several bot processes sharing one database."""

from .engine import PostgresEngine
from .url import check_url, is_url, redact

__all__ = ["PostgresEngine", "check_url", "is_url", "redact"]
