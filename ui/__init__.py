"""ctx web layer: the FastAPI app factory, one router per resource."""
