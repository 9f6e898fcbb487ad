#!/usr/bin/env bash
# Makes a throw-away certificate authority and a server certificate it signed, for
# 127.0.0.1, ::1 and localhost, valid for 2 days, to try or test varsetd's HTTPS:
#   DIR/ca.pem    the authority's certificate: what clients are told to trust
#   DIR/cert.pem  the server certificate (VARSETD_TLS_CERT)
#   DIR/key.pem   its private key (VARSETD_TLS_KEY)
# The authority's key is deleted, so it can sign nothing else.
#   usage: scripts/make-test-certificate.sh DIR
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
command -v openssl >/dev/null 2>&1 || { echo "error: openssl is needed to make a certificate" >&2; exit 1; }

dir=$1
mkdir -p "$dir"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/varsetd-cert.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

cat >"$scratch/openssl.cnf" <<'EOF'
[req]
distinguished_name = name
prompt = no
[name]
CN = varsetd test
[authority]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost
authorityKeyIdentifier = keyid
EOF

# P-256 keys: quick to make, and every TLS client (Go, Node, curl) accepts them.
new_key=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
serial=0x$(openssl rand -hex 16)

openssl req -x509 -config "$scratch/openssl.cnf" -extensions authority "${new_key[@]}" -days 2 \
  -subj "/CN=varsetd throw-away CA $serial" -keyout "$scratch/ca-key.pem" -out "$dir/ca.pem"
openssl req -new -config "$scratch/openssl.cnf" "${new_key[@]}" \
  -subj '/CN=localhost' -keyout "$dir/key.pem" -out "$scratch/server.csr"
openssl x509 -req -in "$scratch/server.csr" -CA "$dir/ca.pem" -CAkey "$scratch/ca-key.pem" -set_serial "$serial" \
  -days 2 -extfile "$scratch/openssl.cnf" -extensions server -out "$dir/cert.pem"
chmod 600 "$dir/key.pem"
