"""ctx plugins."""
