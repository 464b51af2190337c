"""Access: API keys, principals and scopes, tenants and grants, OAuth for remote MCP clients,
sealed secrets."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.access import limits, tenants
    from ctx.core.access.keys import (
        TOKEN_PREFIX,
        authenticate,
        create_key,
        hash_token,
        list_keys,
        revoke_key,
        token_from_headers,
    )
    from ctx.core.access.limits import LIMIT_KINDS, charge_limits
    from ctx.core.access.oauth import (
        CODE_TTL_SECONDS,
        AuthorizationRequest,
        AuthorizeError,
        SignIn,
        authorization_server_metadata,
        cancel_form,
        check_authorization_request,
        open_form,
        protected_resource_metadata,
        redeem_code,
        redirect_location,
        submit_form,
        unique_params,
    )
    from ctx.core.access.oauth_clients import (
        CLIENT_PREFIX,
        OAuthClient,
        OAuthError,
        authenticate_client,
        create_client,
        get_client,
        has_control_characters,
        list_clients,
        register_dynamic,
        remove_client,
        validate_redirect_uri,
    )
    from ctx.core.access.principals import ROLES, SCOPE_RE, Principal, WhoAmI, validate_scope
    from ctx.core.access.secrets import (
        check_secret_name,
        delete_secret,
        list_secrets,
        load_seal_key,
        reveal_secret,
        secret_users,
        set_secret,
    )
    from ctx.core.access.sessions import close_session, open_session, session_principal

__all__ = [
    "CLIENT_PREFIX",
    "CODE_TTL_SECONDS",
    "LIMIT_KINDS",
    "ROLES",
    "SCOPE_RE",
    "TOKEN_PREFIX",
    "AuthorizationRequest",
    "AuthorizeError",
    "OAuthClient",
    "OAuthError",
    "Principal",
    "SignIn",
    "WhoAmI",
    "authenticate",
    "authenticate_client",
    "authorization_server_metadata",
    "cancel_form",
    "charge_limits",
    "check_authorization_request",
    "check_secret_name",
    "close_session",
    "create_client",
    "create_key",
    "delete_secret",
    "get_client",
    "has_control_characters",
    "hash_token",
    "limits",
    "list_clients",
    "list_keys",
    "list_secrets",
    "load_seal_key",
    "open_form",
    "open_session",
    "protected_resource_metadata",
    "redeem_code",
    "redirect_location",
    "register_dynamic",
    "remove_client",
    "reveal_secret",
    "revoke_key",
    "secret_users",
    "session_principal",
    "set_secret",
    "submit_form",
    "tenants",
    "token_from_headers",
    "unique_params",
    "validate_redirect_uri",
    "validate_scope",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
