// Package tlstest makes what the tests of HTTPS and OAuth need: a self-signed certificate
// for 127.0.0.1, and a token credential handing out JWTs shaped as Microsoft Entra ID
// issues them for Azure Storage (unsigned: the servers check claims, not signatures).
package tlstest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// Certificate is a self-signed certificate for 127.0.0.1, valid for an hour around now.
type Certificate struct {
	CertPEM, KeyPEM []byte
	Pool            *x509.CertPool // trusts the certificate
}

// NewCertificate makes a Certificate.
func NewCertificate(t testing.TB) Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tabletop test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return Certificate{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		Pool:    pool,
	}
}

// ServerConfig is the TLS configuration of a server presenting the certificate.
func (c Certificate) ServerConfig(t testing.TB) *tls.Config {
	t.Helper()
	pair, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}}
}

// EntraToken is a token credential handing out unsigned JWTs for audience, issued by
// Microsoft Entra ID and valid for an hour.
type EntraToken struct {
	Audience string // "" means https://storage.azure.com
}

// GetToken returns a token.
func (e EntraToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	aud := e.Audience
	if aud == "" {
		aud = "https://storage.azure.com"
	}
	now := time.Now()
	claims := fmt.Sprintf(`{"aud":%q,"iss":"https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/","nbf":%d,"iat":%d,"exp":%d}`,
		aud, now.Unix()-60, now.Unix()-60, now.Add(time.Hour).Unix())
	enc := base64.RawURLEncoding.EncodeToString
	return azcore.AccessToken{Token: enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc([]byte(claims)) + ".c2ln", ExpiresOn: now.Add(time.Hour)}, nil
}
