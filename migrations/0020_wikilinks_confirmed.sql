-- Wikilinks are links the user wrote (plugins/ingest/linking.py): confirmed on ingest, not
-- "topical links to confirm". Rows an earlier ingest left active, and no person reviewed, are
-- confirmed now.
UPDATE context_links SET status = 'confirmed'
 WHERE origin = 'user' AND note = 'wikilink' AND status = 'active' AND reviewed_at IS NULL;
