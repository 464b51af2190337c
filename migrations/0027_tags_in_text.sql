-- A block's tags are words of its text for the full-text channels (they were in no channel: a
-- question saying "pricing" did not find the block tagged `pricing` unless its text said so).
-- They weigh as the title does (A): a tag is a word someone chose to name the block by. The
-- columns are generated: dropping and adding them again rewrites the table once.
CREATE OR REPLACE FUNCTION ctx_tags_text(p_tags text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(array_to_string(p_tags, ' '), '') $$;

ALTER TABLE context_blocks DROP COLUMN ts_en, DROP COLUMN ts_de;
ALTER TABLE context_blocks
    ADD COLUMN ts_en tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', ctx_tags_text(tags)), 'A') ||
        setweight(to_tsvector('english', coalesce(content, '')), 'B')) STORED,
    ADD COLUMN ts_de tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('german', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('german', ctx_tags_text(tags)), 'A') ||
        setweight(to_tsvector('german', coalesce(content, '')), 'B')) STORED;
CREATE INDEX context_blocks_ts_en ON context_blocks USING gin (ts_en);
CREATE INDEX context_blocks_ts_de ON context_blocks USING gin (ts_de);
