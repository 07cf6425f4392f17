"""svc's Python SDK: place outbound AI phone calls, wait for them, follow them live, verify their webhooks.

    from svc import SvcClient
    svc = SvcClient(os.environ["SVC_API_KEY"], "http://localhost:8080")
    call = svc.wait_for_call(svc.place_call({"to": "+14155550123", "objective": "Ask if they are open on Sunday"})["callId"])
"""
from .client import DEFAULT_BASE_URL, SvcClient
from .download import Download
from .errors import RateLimitInfo, SvcApiError, SvcNetworkError, SvcTimeoutError
from .generated.error_tokens import ERROR_TOKENS, ErrorTokenInfo
from .generated.models import *  # noqa: F401,F403 (every model, listed in its __all__)
from .generated.models import __all__ as _models
from .live_stream import LiveEvent
from .retry import Retries
from .version import __version__
from .waiting import BATCH_ENDED_STATUSES, TERMINAL_STATUSES, is_terminal
from .webhooks import DEFAULT_TOLERANCE_SEC, SIGNATURE_HEADER, WebhookVerificationError, verify_tool_request, verify_webhook

__all__ = [
    "BATCH_ENDED_STATUSES",
    "DEFAULT_BASE_URL",
    "DEFAULT_TOLERANCE_SEC",
    "Download",
    "ERROR_TOKENS",
    "ErrorTokenInfo",
    "LiveEvent",
    "RateLimitInfo",
    "Retries",
    "SIGNATURE_HEADER",
    "SvcApiError",
    "SvcClient",
    "SvcNetworkError",
    "SvcTimeoutError",
    "TERMINAL_STATUSES",
    "WebhookVerificationError",
    "__version__",
    "is_terminal",
    "verify_tool_request",
    "verify_webhook",
    *_models,
]
