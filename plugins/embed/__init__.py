"""Built-in embedders: local models with bundled weights, and any OpenAI-compatible server."""
