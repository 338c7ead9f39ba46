//go:build linux

package native

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tabletopdb/tabletop/worker/native/tlstest"
	"github.com/tabletopdb/tabletop/worker/rest/auth"
)

// testCert writes a self-signed certificate for 127.0.0.1 and its key to a temporary
// directory and returns their files and a pool that trusts the certificate.
func testCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	c := tlstest.NewCertificate(t)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, c.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, c.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, c.Pool
}

// TestHTTPS: with -cert and -key the Go SDK works over HTTPS; a plain HTTP client on the
// HTTPS port and a TLS client on the HTTP port each fail within a second, with a reason.
func TestHTTPS(t *testing.T) {
	certFile, keyFile, pool := testCert(t)
	addr, _ := startProcessArgs(t, "-data :memory: -cert "+certFile+" -key "+keyFile)
	t.Run("SDK", func(t *testing.T) {
		ctx := context.Background()
		cred, err := aztables.NewSharedKeyCredential(auth.DevAccountName, auth.DevAccountKey)
		if err != nil {
			t.Fatal(err)
		}
		transport := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
		svc, err := aztables.NewServiceClientWithSharedKey("https://"+addr+"/"+auth.DevAccountName, cred,
			&aztables.ClientOptions{ClientOptions: policy.ClientOptions{Transport: transport}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateTable(ctx, "Secure", nil); err != nil {
			t.Fatal(err)
		}
		c := svc.NewClient("Secure")
		if _, err := c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","V":"over TLS"}`), nil); err != nil {
			t.Fatal(err)
		}
		got, err := c.GetEntity(ctx, "p", "r", nil)
		if err != nil || !strings.Contains(string(got.Value), "over TLS") {
			t.Fatalf("GetEntity = %s, %v", got.Value, err)
		}
	})
	t.Run("ErrHTTPOnHTTPSPort", func(t *testing.T) {
		start := time.Now()
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + addr + "/devstoreaccount1/Tables")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if took := time.Since(start); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "speaks HTTPS") || took > time.Second {
			t.Fatalf("%d %q after %v", resp.StatusCode, b, took)
		}
	})
	t.Run("ErrTLSOnHTTPPort", func(t *testing.T) {
		plain, _ := startProcessArgs(t, "-data :memory:")
		start := time.Now()
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", plain, &tls.Config{RootCAs: pool})
		if err == nil {
			conn.Close()
			t.Fatal("a TLS handshake with the HTTP port succeeded")
		}
		if took := time.Since(start); took > time.Second {
			t.Fatalf("the TLS client failed after %v: %v", took, err)
		}
	})
	t.Run("ErrCertWithoutKey", func(t *testing.T) {
		if _, err := loadTLS(certFile, ""); err == nil {
			t.Fatal("-cert without -key accepted")
		}
		if _, err := loadTLS(certFile, certFile); err == nil {
			t.Fatal("a certificate as its own key accepted")
		}
	})
}

// TestOAuth: with -oauth over HTTPS the Go SDK's token credential works as the account
// key does; without -oauth a bearer token is refused (401, with a bearer challenge), and
// -oauth without HTTPS is an error.
func TestOAuth(t *testing.T) {
	ctx := context.Background()
	certFile, keyFile, pool := testCert(t)
	opts := &aztables.ClientOptions{ClientOptions: policy.ClientOptions{
		Transport: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}}
	client := func(addr string) *aztables.ServiceClient {
		svc, err := aztables.NewServiceClient("https://"+addr+"/"+auth.DevAccountName, tlstest.EntraToken{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	t.Run("OK", func(t *testing.T) {
		addr, _ := startProcessArgs(t, "-data :memory: -oauth -cert "+certFile+" -key "+keyFile)
		svc := client(addr)
		if _, err := svc.CreateTable(ctx, "Tokens", nil); err != nil {
			t.Fatal(err)
		}
		c := svc.NewClient("Tokens")
		if _, err := c.AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r"}`), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetEntity(ctx, "p", "r", nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrWithoutOAuth", func(t *testing.T) {
		addr, _ := startProcessArgs(t, "-data :memory: -cert "+certFile+" -key "+keyFile)
		_, err := client(addr).CreateTable(ctx, "Tokens", nil)
		// Refused as Azure refuses a token: 401 with a bearer challenge. The server reads
		// no token without -oauth, so the challenge names no tenant of the token's.
		var re *azcore.ResponseError
		if !errors.As(err, &re) || re.StatusCode != http.StatusUnauthorized || re.ErrorCode != "InvalidAuthenticationInfo" {
			t.Fatalf("err %v, want 401 InvalidAuthenticationInfo", err)
		}
		want := "Bearer authorization_uri=https://login.microsoftonline.com/common/oauth2/authorize resource_id=https://storage.azure.com"
		if got := re.RawResponse.Header.Get("WWW-Authenticate"); got != want {
			t.Fatalf("WWW-Authenticate %q, want %q", got, want)
		}
	})
	t.Run("ErrOAuthWithoutHTTPS", func(t *testing.T) {
		if _, err := newServer(config{addr: "127.0.0.1:0", oauth: true}, nil, nil); err == nil || !strings.Contains(err.Error(), "HTTPS") {
			t.Fatalf("err %v, want -oauth refused without HTTPS", err)
		}
	})
}
