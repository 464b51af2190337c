"""Access: API keys, principals and scopes (OAuth, tenants and sealed secrets will join here)."""

from ctx.core.access.keys import (
    TOKEN_PREFIX,
    authenticate,
    create_key,
    hash_token,
    list_keys,
    revoke_key,
    token_from_headers,
)
from ctx.core.access.principals import SCOPE_RE, Principal, WhoAmI, validate_scope

__all__ = [
    "SCOPE_RE",
    "TOKEN_PREFIX",
    "Principal",
    "WhoAmI",
    "authenticate",
    "create_key",
    "hash_token",
    "list_keys",
    "revoke_key",
    "token_from_headers",
    "validate_scope",
]
