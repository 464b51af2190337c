"""ctx migrations."""
