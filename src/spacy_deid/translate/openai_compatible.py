"""A spacy-llm model that speaks the OpenAI chat-completions protocol to any base URL.

Ollama, vLLM and the llama.cpp server all offer `POST {base_url}/chat/completions`,
so one small HTTP client covers the sites where clinical text must not leave the
building. Registered as `spacy_deid.OpenAICompatible.v1` in spacy-llm's
`llm_models` registry:

    [components.llm.model]
    @llm_models = "spacy_deid.OpenAICompatible.v1"
    base_url = "http://127.0.0.1:11434/v1"
    name = "llama3.1:8b"

Timeouts, connection errors, HTTP 408/409/429 and 5xx answers are retried with
exponential backoff; after `max_tries` the call raises `ModelRequestError`, which
names the endpoint and the last error but never the prompt. Other 4xx answers
(a wrong model name, a bad request) fail at once: asking again would not help.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any

# spacy-llm checks the model signature with `typing` generics (it reads `Iterable._name`).
from typing import Iterable as TypingIterable  # noqa: UP035

import requests
from spacy_llm.registry import registry

RETRYABLE_STATUS: frozenset[int] = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
DEFAULT_API_KEY_ENV = "SPACY_DEID_LLM_API_KEY"


class ModelRequestError(RuntimeError):
    """An LLM endpoint could not give an answer; the message names the endpoint, not the prompt."""


def _check_positive(name: str, value: float) -> None:
    if value <= 0:
        raise ValueError(f"spacy_deid.OpenAICompatible.v1: `{name}` must be > 0, got {value!r}")


class OpenAICompatibleModel:
    """Callable spacy-llm model: prompts per document in, answers per document out."""

    def __init__(
        self,
        base_url: str,
        name: str,
        config: Mapping[str, Any],
        api_key_env: str | None,
        system_prompt: str | None,
        timeout: float,
        max_tries: int,
        backoff: float,
        max_backoff: float,
        context_length: int | None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError("spacy_deid.OpenAICompatible.v1: `base_url` must start with "
                             f"http:// or https://, got {base_url!r}")
        if not name:
            raise ValueError("spacy_deid.OpenAICompatible.v1: `name` (the model name) is empty")
        if max_tries < 1:
            raise ValueError(f"spacy_deid.OpenAICompatible.v1: `max_tries` must be >= 1, "
                             f"got {max_tries!r}")
        _check_positive("timeout", timeout)
        _check_positive("backoff", backoff)
        _check_positive("max_backoff", max_backoff)
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.name = name
        self.config = dict(config)
        self.api_key_env = api_key_env
        self.system_prompt = system_prompt
        self.timeout = timeout
        self.max_tries = max_tries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._context_length = context_length
        self._sleep = sleep

    @property
    def context_length(self) -> int | None:
        """The model's context length if configured (spacy-llm asks for it)."""
        return self._context_length

    def _headers(self) -> dict[str, str]:
        """JSON headers, with a bearer token when the configured environment variable is set."""
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _payload(self, prompt: str) -> dict[str, Any]:
        """The chat-completions request body for one prompt."""
        messages = [{"role": "user", "content": prompt}]
        if self.system_prompt:
            messages.insert(0, {"role": "system", "content": self.system_prompt})
        return {**self.config, "model": self.name, "messages": messages}

    def _wait(self, attempt: int) -> None:
        """Wait before try `attempt + 1`: backoff, 2*backoff, 4*backoff ... at most max_backoff."""
        self._sleep(min(self.backoff * 2 ** (attempt - 1), self.max_backoff))

    def complete(self, prompt: str) -> str:
        """Send one prompt; return the answer text, retrying transient failures with backoff."""
        last_error = "no request sent"
        for attempt in range(1, self.max_tries + 1):
            if attempt > 1:
                self._wait(attempt - 1)
            try:
                response = requests.post(self.url, json=self._payload(prompt),
                                         headers=self._headers(), timeout=self.timeout)
            except requests.Timeout:
                last_error = f"no answer within {self.timeout} s"
                continue
            except requests.ConnectionError as error:
                last_error = f"connection failed ({type(error).__name__})"
                continue
            if response.status_code in RETRYABLE_STATUS:
                last_error = f"HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                raise ModelRequestError(
                    f"{self.url} refused the request: HTTP {response.status_code}: "
                    f"{_error_message(response)}")
            return _answer_text(response, self.url)
        raise ModelRequestError(f"{self.url} gave no answer after {self.max_tries} tries "
                                f"(last: {last_error})")

    def __call__(self, prompts: TypingIterable[TypingIterable[str]]
                 ) -> TypingIterable[TypingIterable[str]]:
        """spacy-llm's model interface: for each document, one answer per prompt."""
        return [[self.complete(prompt) for prompt in doc_prompts] for doc_prompts in prompts]


def _error_message(response: requests.Response) -> str:
    """The server's error message, shortened (servers may echo the request)."""
    try:
        body = response.json()
        error = body.get("error", body) if isinstance(body, dict) else body
        message = error.get("message", error) if isinstance(error, dict) else error
    except ValueError:
        message = response.text
    return str(message)[:200]


def _answer_text(response: requests.Response, url: str) -> str:
    """Extract `choices[0].message.content`; a malformed body is an error naming the endpoint."""
    try:
        body = response.json()
        content = body["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ModelRequestError(f"{url} answered without choices[0].message.content") from error
    if not isinstance(content, str):
        raise ModelRequestError(f"{url} answered with non-text content")
    return content


@registry.llm_models("spacy_deid.OpenAICompatible.v1")
def make_openai_compatible(
    base_url: str = "http://127.0.0.1:11434/v1",
    name: str = "llama3.1:8b",
    config: dict[str, Any] = {"temperature": 0.0},  # noqa: B006 - spaCy config default
    api_key_env: str | None = DEFAULT_API_KEY_ENV,
    system_prompt: str | None = None,
    timeout: float = 300.0,
    max_tries: int = 5,
    backoff: float = 2.0,
    max_backoff: float = 60.0,
    context_length: int | None = None,
) -> OpenAICompatibleModel:
    """Registered model for an OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server).

    base_url: the API root, e.g. "http://127.0.0.1:8000/v1" (vLLM) or ".../11434/v1" (Ollama).
    name: the model name the server knows. config: extra request fields (temperature ...).
    api_key_env: environment variable holding an optional bearer token (never put keys in configs).
    timeout: seconds per request; max_tries / backoff / max_backoff: retry policy for timeouts,
    connection errors, 408/409/425/429 and 5xx answers.
    """
    return OpenAICompatibleModel(
        base_url=base_url, name=name, config=config, api_key_env=api_key_env,
        system_prompt=system_prompt, timeout=timeout, max_tries=max_tries, backoff=backoff,
        max_backoff=max_backoff, context_length=context_length,
    )
