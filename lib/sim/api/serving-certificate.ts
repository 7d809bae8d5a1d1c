import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generate } from "selfsigned";

// The API server's TLS certificate, as kubeadm makes one for a new cluster: self-signed, for
// 127.0.0.1 and localhost, made once and kept with the cluster's state so a kubeconfig written
// earlier keeps trusting it. Stock clients need TLS: client-go never sends a bearer token over
// plain HTTP, so kubectl only proves who it is to an https:// server.

export interface ServingCertificate {
  cert: string;
  key: string;
}

const CERT_FILE = "apiserver.crt";
const KEY_FILE = "apiserver.key";

export async function servingCertificate(dataDir: string): Promise<ServingCertificate> {
  const certFile = path.join(dataDir, CERT_FILE);
  const keyFile = path.join(dataDir, KEY_FILE);
  if (existsSync(certFile) && existsSync(keyFile)) return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  const made = await generate([{ name: "commonName", value: "berth-sim-apiserver" }], {
    keyType: "ec",
    curve: "P-256",
    notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000),
    // It is its own CA: the kubeconfig's certificate-authority-data is this certificate.
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }, { type: 2, value: "localhost" }] },
    ],
  });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(keyFile, made.private, { mode: 0o600 });
  writeFileSync(certFile, made.cert, { mode: 0o644 });
  return { cert: made.cert, key: made.private };
}
