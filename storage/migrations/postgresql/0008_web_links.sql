-- The links of a battle's web view, kept as SHA-256 hashes: the PostgreSQL twin of sqlite/0006_web_links.sql.
CREATE TABLE web_links (
    token_hash  TEXT PRIMARY KEY,
    battle_id   BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    audience    TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);

CREATE INDEX web_links_battle ON web_links (battle_id, audience, created_at);
