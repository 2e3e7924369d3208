"""The OpenAI-compatible spacy-llm model against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import socket

import pytest
from spacy_llm.registry import registry

from spacy_deid.translate.openai_compatible import ModelRequestError, OpenAICompatibleModel
from tests.scripted_llm_server import Stall, scripted_llm_server


def make_model(base_url: str, **overrides) -> tuple[OpenAICompatibleModel, list[float]]:
    """A model with a fast retry policy; returns it and the list of back-off waits it took."""
    waits: list[float] = []
    settings = {"base_url": base_url, "name": "local-model", "config": {"temperature": 0.0},
                "api_key_env": "SPACY_DEID_TEST_KEY", "system_prompt": None, "timeout": 0.3,
                "max_tries": 3, "backoff": 0.01, "max_backoff": 0.02, "context_length": None,
                "sleep": waits.append}
    settings.update(overrides)
    return OpenAICompatibleModel(**settings), waits


def test_answers_one_list_per_document_and_sends_the_chat_request(monkeypatch):
    monkeypatch.setenv("SPACY_DEID_TEST_KEY", "secret-token")
    with scripted_llm_server({"first": ["eins"], "second": ["zwei"]}) as server:
        model, waits = make_model(server.base_url, system_prompt="Be exact.")
        answers = list(model([["the first prompt"], ["the second prompt"]]))
    assert answers == [["eins"], ["zwei"]]
    assert waits == []
    body = server.requests[0]
    assert body["model"] == "local-model"
    assert body["temperature"] == 0.0
    assert body["messages"] == [{"role": "system", "content": "Be exact."},
                                {"role": "user", "content": "the first prompt"}]
    assert server.headers[0]["Authorization"] == "Bearer secret-token"


def test_no_authorization_header_without_a_key(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_TEST_KEY", raising=False)
    with scripted_llm_server({"p": ["ok"]}) as server:
        model, _ = make_model(server.base_url)
        assert model.complete("p") == "ok"
    assert "Authorization" not in server.headers[0]


def test_server_errors_are_retried_with_growing_backoff():
    with scripted_llm_server({"p": [503, 429, "finally"]}) as server:
        model, waits = make_model(server.base_url, backoff=0.01, max_backoff=1.0)
        assert model.complete("p") == "finally"
    assert len(server.requests) == 3
    assert waits == [0.01, 0.02]


def test_a_timeout_is_retried_then_answered():
    with scripted_llm_server({"p": [Stall(1.0), "late but fine"]}) as server:
        model, waits = make_model(server.base_url, timeout=0.2)
        assert model.complete("p") == "late but fine"
    assert len(waits) == 1


def test_persistent_timeouts_are_reported_after_max_tries():
    with scripted_llm_server({"p": [Stall(1.0)]}) as server:
        model, waits = make_model(server.base_url, timeout=0.2, max_tries=2)
        with pytest.raises(ModelRequestError, match="no answer after 2 tries.*no answer within"):
            model.complete("secret patient prompt")
    assert len(waits) == 1


def test_error_message_names_the_endpoint_not_the_prompt():
    with scripted_llm_server({"p": [503]}) as server:
        model, _ = make_model(server.base_url, max_tries=2)
        with pytest.raises(ModelRequestError) as caught:
            model.complete("p Beate Albrecht")
    assert server.base_url in str(caught.value)
    assert "Albrecht" not in str(caught.value)
    assert "HTTP 503" in str(caught.value)


def test_client_errors_fail_at_once():
    with scripted_llm_server({"p": [400]}) as server:
        model, waits = make_model(server.base_url)
        with pytest.raises(ModelRequestError, match="HTTP 400: scripted status 400"):
            model.complete("p")
    assert len(server.requests) == 1
    assert waits == []


def test_refused_connection_is_retried_then_reported():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model, waits = make_model(f"http://127.0.0.1:{port}/v1", max_tries=2)
    with pytest.raises(ModelRequestError, match="connection failed"):
        model.complete("p")
    assert len(waits) == 1


@pytest.mark.parametrize(("setting", "value"), [
    ("base_url", "localhost:8000"), ("name", ""), ("max_tries", 0), ("timeout", 0),
    ("backoff", -1.0),
])
def test_bad_settings_fail_early_naming_the_setting(setting, value):
    with pytest.raises(ValueError, match=f"`{setting}`"):
        make_model(**{"base_url": "http://127.0.0.1:1/v1", setting: value})


def test_registered_in_spacy_llm_models_and_built_from_config():
    config = {"model": {"@llm_models": "spacy_deid.OpenAICompatible.v1",
                        "base_url": "http://127.0.0.1:8000/v1/", "name": "qwen",
                        "timeout": 5, "context_length": 8192}}
    model = registry.resolve(config)["model"]
    assert isinstance(model, OpenAICompatibleModel)
    assert model.url == "http://127.0.0.1:8000/v1/chat/completions"
    assert model.context_length == 8192
