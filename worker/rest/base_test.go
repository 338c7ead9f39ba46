package rest

import "testing"

func TestBaseCache_Get(t *testing.T) {
	var b baseCache
	for _, tc := range []struct{ scheme, host, slash, name, want string }{
		{"http", "127.0.0.1:10002", "/", "devstoreaccount1", "http://127.0.0.1:10002/devstoreaccount1"},
		{"http", "127.0.0.1:10002", "/", "devstoreaccount1", "http://127.0.0.1:10002/devstoreaccount1"},
		{"https", "127.0.0.1:10002", "/", "devstoreaccount1", "https://127.0.0.1:10002/devstoreaccount1"},
		{"http", "127.0.0.1:1000", "2", "/devstoreaccount1", "http://127.0.0.1:10002/devstoreaccount1"},
		{"http", "127.0.0.1:10002", "/", "devstoreaccount1-secondary", "http://127.0.0.1:10002/devstoreaccount1-secondary"},
		{"http", "a.table.example", "", "", "http://a.table.example"},
		{"http", "a.table.exampl", "", "e", "http://a.table.example"},
		{"htt", "p:/", "/", "a.table.example", "htt://p://a.table.example"},
	} {
		if got := b.get(tc.scheme, tc.host, tc.slash, tc.name); got != tc.want {
			t.Errorf("get(%q, %q, %q, %q) = %q, want %q", tc.scheme, tc.host, tc.slash, tc.name, got, tc.want)
		}
	}
	t.Run("Allocs", func(t *testing.T) {
		if n := testing.AllocsPerRun(1000, func() { b.get("http", "localhost:1", "/", "a") }); n != 0 {
			t.Errorf("a repeated base allocates %.0f times", n)
		}
	})
}
