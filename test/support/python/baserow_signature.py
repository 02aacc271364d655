"""Baserow 1.35.3's manifest signing and checking (core/import_export/handler.py:
create_manifest_signature and validate_signature), run on a zip to cross-check Rowspace.

  baserow_signature.py verify <zip>              prints "valid" or why not
  baserow_signature.py sign <zip> <private.pem>  rewrites manifest_signature.json as Baserow signs it
"""
import base64
import json
import sys
import zipfile
from datetime import datetime

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.backends import default_backend
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding


def digest(manifest):
    manifest_bytes = json.dumps(manifest, sort_keys=True).encode()
    h = hashes.Hash(hashes.SHA256(), backend=default_backend())
    h.update(manifest_bytes)
    return h.finalize()


def verify(path):
    with zipfile.ZipFile(path) as z:
        manifest = json.load(z.open("manifest.json"))
        signature = json.load(z.open("manifest_signature.json"))
    public_key = serialization.load_pem_public_key(base64.b64decode(signature["public_key_pem"]), backend=default_backend())
    try:
        public_key.verify(
            base64.b64decode(signature["signature"]),
            digest(manifest),
            padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH),
            hashes.SHA256(),
        )
    except InvalidSignature:
        print("forged")
        return
    print("valid")


def sign(path, private_pem):
    with zipfile.ZipFile(path) as z:
        entries = {name: z.read(name) for name in z.namelist()}
    manifest = json.loads(entries["manifest.json"])
    private_key = serialization.load_pem_private_key(open(private_pem, "rb").read(), password=None, backend=default_backend())
    public_key_pem = private_key.public_key().public_bytes(
        encoding=serialization.Encoding.PEM, format=serialization.PublicFormat.SubjectPublicKeyInfo
    )
    signature = private_key.sign(
        digest(manifest),
        padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH),
        hashes.SHA256(),
    )
    entries["manifest_signature.json"] = json.dumps(
        {
            "signature": base64.b64encode(signature).decode("utf-8"),
            "public_key_pem": base64.b64encode(public_key_pem).decode("utf-8"),
            "timestamp": datetime.now().isoformat(),
        }
    ).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in entries.items():
            z.writestr(name, content)
    print("signed")


if __name__ == "__main__":
    if sys.argv[1] == "verify":
        verify(sys.argv[2])
    else:
        sign(sys.argv[2], sys.argv[3])
