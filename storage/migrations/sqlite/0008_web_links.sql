-- The links of a battle's web view: each token is kept only as its SHA-256 (hex), so the database never
-- holds a working link. audience: 'public', 'gm', or 'side:' followed by the side's name in lower case.
-- A battle's GM revokes them all at once; they go with the battle.
CREATE TABLE web_links (
    token_hash  TEXT PRIMARY KEY,
    battle_id   INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    audience    TEXT NOT NULL,
    created_at  REAL NOT NULL
) STRICT;

CREATE INDEX web_links_battle ON web_links (battle_id, audience, created_at);
