package bridge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/tabletopdb/tabletop/worker/rest/exchange"
	"github.com/tabletopdb/tabletop/worker/rest/uri"
)

func TestDecodeRequest(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		head := "PUT https://acct.table.example/acct/T(PartitionKey='p',RowKey='r')?x=1 HTTP\n" +
			"x-ms-date: Sat, 22 Nov 2026 10:00:00 GMT\nif-match: W/\"a,b\"\nAccept: a\naccept: b\ncf-connecting-ip: 203.0.113.9\n"
		r, err := DecodeRequest(head, []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Method != "PUT" || r.Host != "acct.table.example" || r.URL.Path != "/acct/T(PartitionKey='p',RowKey='r')" {
			t.Errorf("request line: %s %s %s", r.Method, r.Host, r.URL.Path)
		}
		if got := r.Header.Get("X-Ms-Date"); got != "Sat, 22 Nov 2026 10:00:00 GMT" {
			t.Errorf("x-ms-date = %q: a comma must not split a value", got)
		}
		if got := r.Header.Get("If-Match"); got != `W/"a,b"` {
			t.Errorf("If-Match = %q", got)
		}
		if got := r.Header.Values("Accept"); !reflect.DeepEqual(got, []string{"a", "b"}) {
			t.Errorf("Accept = %q", got)
		}
		if !r.Secure || r.RemoteAddr != "203.0.113.9" || r.ContentLength != 2 {
			t.Errorf("Secure %v, RemoteAddr %q, ContentLength %d", r.Secure, r.RemoteAddr, r.ContentLength)
		}
		if b, _ := io.ReadAll(r.Body); string(b) != "{}" {
			t.Errorf("body = %q", b)
		}
	})
	t.Run("OKPlainHTTPNoBody", func(t *testing.T) {
		r, err := DecodeRequest("GET http://127.0.0.1:8787/devstoreaccount1/Tables", nil)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(r.Body); r.Secure || err != nil || len(b) != 0 || r.ContentLength != 0 || r.URL.RawQuery != "" {
			t.Errorf("Secure %v, body %q, %v", r.Secure, b, err)
		}
	})
	for _, head := range []string{"", "GET", " http://h/", "GET /relative", "GET ftp://h/", "GET http://h/\nno colon", "GET http://h/\nbad name: v", "GET http://h/\n: v"} {
		t.Run("ErrMalformedHead", func(t *testing.T) {
			if _, err := DecodeRequest(head, nil); !errors.Is(err, ErrMalformedHead) {
				t.Errorf("DecodeRequest(%q) = %v, want ErrMalformedHead", head, err)
			}
		})
	}
}

func TestRecorder_Head(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		w := NewRecorder()
		w.Header().Set("ETag", `W/"datetime'2026-11-22T10%3A00%3A00Z'"`)
		w.WriteHeader(exchange.StatusNoContent)
		w.WriteHeader(exchange.StatusOK) // ignored, as net/http does
		if got, want := w.Head(), "204\nEtag: W/\"datetime'2026-11-22T10%3A00%3A00Z'\"\n"; got != want {
			t.Errorf("Head() = %q, want %q", got, want)
		}
	})
	t.Run("OKImplicit200", func(t *testing.T) {
		w := NewRecorder()
		w.Write([]byte("hi"))
		if w.Status() != 200 || string(w.Body()) != "hi" {
			t.Errorf("status %d body %q", w.Status(), w.Body())
		}
	})
}

func TestServe(t *testing.T) {
	echo := handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		w.WriteHeader(exchange.StatusCreated)
		fmt.Fprintf(w, "%s|%s", r.Header.Get("X-Ms-Date"), b)
	})
	t.Run("OK", func(t *testing.T) {
		head, body := Serve(echo, "POST http://h/a\nx-ms-date: Sat, 22 Nov 2026\n", []byte("payload"), nil)
		if head != "201\nX-Method: POST\n" || string(body) != "Sat, 22 Nov 2026|payload" {
			t.Errorf("Serve = %q, %q", head, body)
		}
	})
	t.Run("ErrMalformedHead", func(t *testing.T) {
		head, _ := Serve(echo, "nonsense", nil, nil)
		if !strings.HasPrefix(head, "400\n") {
			t.Errorf("head = %q, want 400", head)
		}
	})
	t.Run("ErrPanic", func(t *testing.T) {
		var got any
		boom := handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
			w.Header().Set("X-Half", "done")
			panic("boom")
		})
		head, body := Serve(boom, "GET http://h/", nil, func(v any) { got = v })
		if !strings.HasPrefix(head, "500\n") || strings.Contains(head, "X-Half") || !strings.Contains(string(body), "boom") || got != "boom" {
			t.Errorf("Serve = %q, %q; onPanic got %v", head, body, got)
		}
	})
}

func FuzzDecodeRequest(f *testing.F) {
	f.Add("GET http://127.0.0.1:8787/devstoreaccount1/Tables\nx-ms-date: Sat, 22 Nov 2026\n")
	f.Add("MERGE https://a.b/acct/t(PartitionKey='p',RowKey='r')\nIf-Match: *\n\n")
	f.Add("GET http://h/\n:\n")
	f.Fuzz(func(t *testing.T, head string) {
		r, err := DecodeRequest(head, nil)
		if err != nil {
			return
		}
		again, err := DecodeRequest(encodeHead(r.Method, urlString(r.URL), r.Header), nil)
		if err != nil {
			t.Fatalf("re-encoded head does not decode: %v", err)
		}
		if again.Method != r.Method || urlString(again.URL) != urlString(r.URL) || !reflect.DeepEqual(again.Header, r.Header) {
			t.Fatalf("round trip changed the request: %v %v %v", again.Method, again.URL, again.Header)
		}
	})
}

func BenchmarkServe(b *testing.B) {
	h := handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	head := encodeHead("PUT", "http://127.0.0.1/devstoreaccount1/t(PartitionKey='p',RowKey='r')", exchange.Header{
		"X-Ms-Date": {"Sat, 22 Nov 2026 10:00:00 GMT"}, "Authorization": {"SharedKey devstoreaccount1:abc"},
		"Content-Type": {"application/json"}, "Accept": {"application/json;odata=minimalmetadata"},
	})
	for _, n := range []int{100, 10_000, 1_000_000} {
		body := []byte(strings.Repeat("x", n))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Serve(h, head, body, nil)
			}
		})
	}
}

// encodeHead is the head of a request in the form DecodeRequest reads: the form the
// JavaScript glue writes.
func encodeHead(method, rawURL string, h exchange.Header) string {
	return string(appendHeader([]byte(method+" "+rawURL+"\n"), h))
}

// handlerFunc is a function as an exchange.Handler.
type handlerFunc func(w exchange.ResponseWriter, r *exchange.Request)

func (f handlerFunc) Serve(w exchange.ResponseWriter, r *exchange.Request) { f(w, r) }

// urlString is an absolute URL as url.URL's String writes it (DecodeRequest keeps no
// user information or fragment).
func urlString(u *uri.URL) string {
	s := u.Scheme + "://" + u.Host + u.EscapedPath()
	if u.ForceQuery || u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return s
}

func TestServeFrame(t *testing.T) {
	echo := handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Method", r.Method)
		w.WriteHeader(exchange.StatusCreated)
		fmt.Fprintf(w, "%s|%s", r.Header.Get("X-Ms-Date"), b)
	})
	t.Run("OK", func(t *testing.T) {
		head := "POST http://h/a\nx-ms-date: Sat, 22 Nov 2026\n"
		frame := []byte(head + "payload")
		out := ServeFrame(echo, []byte("kept"), frame, len(head), nil)
		if string(out[:4]) != "kept" {
			t.Fatalf("dst's bytes not kept: %q", out[:4])
		}
		h, b := splitAnswer(t, out[4:])
		if h != "201\nX-Method: POST\n" || b != "Sat, 22 Nov 2026|payload" {
			t.Errorf("ServeFrame = %q, %q", h, b)
		}
	})
	t.Run("OKFrameReused", func(t *testing.T) {
		head := "PUT http://h/a\n"
		frame := []byte(head + "abc")
		var kept []byte
		keep := handlerFunc(func(w exchange.ResponseWriter, r *exchange.Request) { kept, _ = io.ReadAll(r.Body) })
		ServeFrame(keep, nil, frame, len(head), nil)
		copy(frame[len(head):], "xyz")
		if string(kept) != "abc" {
			t.Errorf("the body the handler read changed with the frame: %q", kept)
		}
	})
	t.Run("OKNoBody", func(t *testing.T) {
		head := "GET http://h/a\n"
		h, b := splitAnswer(t, ServeFrame(echo, nil, []byte(head), len(head), nil))
		if h != "201\nX-Method: GET\n" || b != "|" {
			t.Errorf("ServeFrame = %q, %q", h, b)
		}
	})
	for _, n := range []int{-1, 100} {
		t.Run("ErrMalformedFrame", func(t *testing.T) {
			h, b := splitAnswer(t, ServeFrame(echo, nil, []byte("GET http://h/a\n"), n, nil))
			if !strings.HasPrefix(h, "400\n") || !strings.Contains(b, ErrMalformedFrame.Error()) {
				t.Errorf("head length %d: %q %q", n, h, b)
			}
		})
	}
	t.Run("ErrMalformedHead", func(t *testing.T) {
		h, _ := splitAnswer(t, ServeFrame(echo, nil, []byte("nonsense"), 8, nil))
		if !strings.HasPrefix(h, "400\n") {
			t.Errorf("head = %q, want 400", h)
		}
	})
}

// splitAnswer is the head and the body of an answer frame.
func splitAnswer(tb testing.TB, frame []byte) (head, body string) {
	tb.Helper()
	if len(frame) < HeadLenSize {
		tb.Fatalf("answer frame of %d bytes", len(frame))
	}
	n := int(binary.LittleEndian.Uint32(frame))
	if HeadLenSize+n > len(frame) {
		tb.Fatalf("head length %d beyond the frame's %d bytes", n, len(frame))
	}
	return string(frame[HeadLenSize : HeadLenSize+n]), string(frame[HeadLenSize+n:])
}
