#!/usr/bin/env python3
"""Writes the TLS test certificates of Tests/PageFetchingTests/TLS (committed; run again only to
change them). A test CA, and certificates it signs for 127.0.0.1: one good until 2125, one that
expired in 2021, one for another host name. Test material only: the keys are public.

Needs the `cryptography` package (Debian's python3-cryptography).
"""
import datetime
import ipaddress
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

folder = os.path.join(os.path.dirname(__file__), "..", "Tests", "PageFetchingTests", "TLS")


def key():
    return ec.generate_private_key(ec.SECP256R1())


def write(name, certificate, private_key=None):
    with open(os.path.join(folder, name + ".pem"), "wb") as out:
        out.write(certificate.public_bytes(serialization.Encoding.PEM))
    if private_key is not None:
        with open(os.path.join(folder, name + ".key"), "wb") as out:
            out.write(
                private_key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


ca_key = key()
ca = (
    x509.CertificateBuilder()
    .subject_name(name("SpotCheck test CA"))
    .issuer_name(name("SpotCheck test CA"))
    .public_key(ca_key.public_key())
    .serial_number(1)
    .not_valid_before(datetime.datetime(2025, 1, 1))
    .not_valid_after(datetime.datetime(2125, 1, 1))
    .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
    .add_extension(
        x509.KeyUsage(
            digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
            key_encipherment=False, data_encipherment=False, key_agreement=False, encipher_only=False,
            decipher_only=False,
        ),
        critical=True,
    )
    .sign(ca_key, hashes.SHA256())
)
write("ca", ca)


def leaf(file, serial, names, start, end):
    leaf_key = key()
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name(file))
        .issuer_name(ca.subject)
        .public_key(leaf_key.public_key())
        .serial_number(serial)
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    write(file, certificate, leaf_key)


loopback = [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
leaf("server", 2, loopback, datetime.datetime(2025, 1, 1), datetime.datetime(2125, 1, 1))
leaf("expired", 3, loopback, datetime.datetime(2020, 1, 1), datetime.datetime(2021, 1, 1))
leaf("other-host", 4, [x509.DNSName("other.example")], datetime.datetime(2025, 1, 1), datetime.datetime(2125, 1, 1))
print("wrote", sorted(os.listdir(folder)))
