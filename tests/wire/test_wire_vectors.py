"""The committed golden vectors agree with the code, byte for byte."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from wire_samples import CLIENT_NONCE, HOST_NONCE, PIN

from sorry_lan.wire.auth import check_pin_proof, pin_key
from sorry_lan.wire.codec import Decoder, encode, from_wire, to_wire
from sorry_lan.wire.errors import RemoteProtocolError
from sorry_lan.wire.messages import Proof
from sorry_lan.wire.vocab import ByeReason, MsgType, RefuseReason

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors"
MESSAGES = json.loads((VECTORS / "messages.json").read_text(encoding="utf-8"))["vectors"]
INVALID = json.loads((VECTORS / "invalid.json").read_text(encoding="utf-8"))["vectors"]
ACCEPTED = json.loads((VECTORS / "accepted.json").read_text(encoding="utf-8"))["vectors"]


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"bin"}:
        return bytes.fromhex(value["bin"])
    if isinstance(value, dict):
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def test_every_message_type_has_a_vector() -> None:
    assert {v["type"] for v in MESSAGES} == {t.value for t in MsgType}


@pytest.mark.parametrize("vector", MESSAGES, ids=[v["name"] for v in MESSAGES])
def test_vector_decodes_to_its_json_and_reencodes_exactly(vector: dict[str, Any]) -> None:
    frame = bytes.fromhex(vector["frame"])
    [message] = Decoder().feed(frame)
    assert message.TYPE.value == vector["type"]
    assert message == from_wire(_from_json(vector["message"]))
    assert _from_json(vector["message"]) == to_wire(message)
    assert encode(message) == frame


@pytest.mark.parametrize("vector", INVALID, ids=[v["name"] for v in INVALID])
def test_invalid_vector_gives_its_reason(vector: dict[str, Any]) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        Decoder().feed(bytes.fromhex(vector["frame"]))
    assert info.value.reason.value == vector["reason"]


@pytest.mark.parametrize("vector", ACCEPTED, ids=[v["name"] for v in ACCEPTED])
def test_accepted_vector_decodes_to_its_message(vector: dict[str, Any]) -> None:
    frame = bytes.fromhex(vector["frame"])
    [message] = Decoder().feed(frame)
    assert message == from_wire(_from_json(vector["message"]))
    assert to_wire(message) == _from_json(vector["message"])


def test_accepted_vectors_cover_the_lenient_rules() -> None:
    names = {v["name"] for v in ACCEPTED}
    assert {"player_record_of_8_with_nothing_to_say", "profile_lang_any_case",
            "fields_in_another_order", "ints_not_in_shortest_form"} <= names


def test_proof_vector_proves_the_documented_pin() -> None:
    [proof_vec] = [v for v in MESSAGES if v["type"] == "proof"]
    [proof] = Decoder().feed(bytes.fromhex(proof_vec["frame"]))
    assert isinstance(proof, Proof) and proof.cnonce == CLIENT_NONCE
    assert check_pin_proof(pin_key(PIN), HOST_NONCE, proof.cnonce, proof.mac)
    assert not check_pin_proof(pin_key("4321"), HOST_NONCE, proof.cnonce, proof.mac)


def test_gen_vectors_check_passes_from_the_repo_root() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/gen_vectors.py", "--check"],
        cwd=ROOT, capture_output=True, text=True, timeout=50, check=False,
    )
    assert result.returncode == 0, result.stderr


def test_gen_vectors_check_fails_on_drift(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_vectors", ROOT / "scripts/gen_vectors.py")
    assert spec is not None and spec.loader is not None
    gen_vectors: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_vectors)
    files = gen_vectors.build()
    assert set(files) == {
        VECTORS / "messages.json", VECTORS / "invalid.json", VECTORS / "accepted.json",
        VECTORS / "commitments.json", ROOT / "protocol" / "SPEC.md",
    }
    assert gen_vectors.stale_files(files) == []
    moved = {tmp_path / p.name: text for p, text in files.items()}
    assert gen_vectors.stale_files(moved) == list(moved)  # missing files are stale
    for path, text in moved.items():
        if path.name == "messages.json":
            text = text.replace('"ping"', '"pong"', 1)
        path.write_text(text, encoding="utf-8")
    assert gen_vectors.stale_files(moved) == [tmp_path / "messages.json"]


def test_spec_covers_every_message_reason_and_the_table() -> None:
    spec = (ROOT / "protocol" / "SPEC.md").read_text(encoding="utf-8")
    from sorry_lan.wire.errors import ErrorReason
    from sorry_lan.wire.transitions import render_transitions

    assert render_transitions() in spec
    for mtype in MsgType:
        assert f"<!-- generated:fields:{mtype.value} -->\n| field |" in spec, mtype
        assert f"**`{mtype.value}`**" in spec, mtype
    for reason in [*ErrorReason, *RefuseReason, *ByeReason]:
        assert f"`{reason.value}`" in spec, reason


COMMITMENTS = json.loads((VECTORS / "commitments.json").read_text(encoding="utf-8"))


def test_commitment_vectors_are_the_commit_and_succession_vectors_hashes() -> None:
    """Each hand's digest is sha256(salt || packed), its packing the sorted card ints;
    the ``commit`` vector carries those digests and the seat verifiers are those of
    the ``succession`` vector: a third party can check all three files agree."""
    import hashlib

    import msgpack

    hands = COMMITMENTS["hands"]
    for entry in hands:
        packed = bytes.fromhex(entry["packed"])
        assert msgpack.unpackb(packed) == sorted(entry["hand"])
        assert hashlib.sha256(bytes.fromhex(entry["salt"]) + packed).hexdigest() == entry["digest"]
    by_name = {v["name"]: _from_json(v["message"]) for v in MESSAGES}
    assert [d.hex() for d in by_name["commit"]["digests"]] == [h["digest"] for h in hands]
    seats = {seat[0]: seat[2] for seat in by_name["succession"]["seats"]}
    for entry in COMMITMENTS["verifiers"]:
        token = bytes.fromhex(entry["token"])
        assert seats[entry["pid"]] == hashlib.sha256(token).digest()
        assert entry["verifier"] == hashlib.sha256(token).hexdigest()
    reveal = by_name["reveal"]
    bob = hands[1]
    assert (sorted(reveal["hand"]), reveal["salt"].hex()) == (sorted(bob["hand"]), bob["salt"])
