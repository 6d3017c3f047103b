"""A push service on this machine, for tests: an HTTPS server (a self-signed certificate that the
sender is told to trust through PUSH_CA_BUNDLE) that records each POST and answers as told, and a
browser's side of a subscription, which decrypts what arrived as the browser would."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@dataclass
class VapidKeys:
    """The site's key pair, as the settings take it."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )

    @property
    def public(self) -> str:
        return b64url(public_point(self.key))

    @property
    def private(self) -> str:
        return b64url(self.key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass
class Browser:
    """One browser's subscription keys: what it tells the site, and what it keeps to decrypt."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: __import__("os").urandom(16))

    def keys(self) -> dict:
        return {"p256dh": b64url(public_point(self.key)), "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def verify_vapid(authorization: str, vapid: VapidKeys, audience: str) -> dict:
    """The claims of the `vapid t=<JWT>, k=<key>` header, after checking its ES256 signature
    with the site's public key; raises if anything is off."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == vapid.public
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    assert json.loads(unb64url(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature_b64)
    assert len(raw) == 64
    signature = encode_dss_signature(
        int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    )
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    public.verify(signature, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(unb64url(claims_b64))
    assert claims["aud"] == audience
    assert claims["exp"] > datetime.datetime.now(datetime.UTC).timestamp()
    return claims


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 that is its own authority: (certificate, key) PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test push service")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "push-service.pem", folder / "push-service-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass(frozen=True)
class Drip:
    """An answer whose body never ends: `size` bytes at a time, every `pause` seconds, until the
    sender hangs up or the service stops (a hostile endpoint, as tests/webhooks/receiver.py)."""

    status: int
    size: int
    pause: float


class PushService:
    """Answers 201 to every POST unless told otherwise for a path (`answers["/gone"] = 410`, or
    `answers["/endless"] = Drip(500, 64 * 1024, 0.01)`)."""

    def __init__(self, folder: Path) -> None:
        self.cert, key = self_signed_certificate(folder)
        self.received: list[Received] = []
        self.answers: dict[str, int | Drip] = {}
        self.stopping = threading.Event()
        self.dripped = 0  # bytes of endless answers written
        self.server_names: list[str | None] = []  # what each TLS handshake asked for (SNI)
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append(Received(self.path, headers, body))
                answer = service.answers.get(self.path, 201)
                if isinstance(answer, Drip):
                    self.send_response(answer.status)
                    self.send_header("Content-Length", str(10**12))
                    self.end_headers()
                    self._drip(answer)
                    return
                self.send_response(answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _drip(self, answer: Drip) -> None:
                try:
                    while not service.stopping.is_set():
                        self.wfile.write(b"x" * answer.size)
                        self.wfile.flush()
                        service.dripped += answer.size
                        time.sleep(answer.pause)
                except OSError:  # the sender hung up
                    pass

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        context.sni_callback = lambda _socket, name, _context: self.server_names.append(name)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = f"https://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    def to(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]
