package rest

import "testing"

func TestIsVersionDate(t *testing.T) {
	for v, want := range map[string]bool{
		"2019-02-02": true, "2099-01-01": true, "2024-02-29": true, "2000-02-29": true,
		"2023-02-29": false, "1900-02-29": false, "2019-13-01": false, "2019-00-10": false,
		"2019-04-31": false, "2019-02-2": false, "2019-02-02x": false, "20190202xx": false,
		"2019/02/02": false, "": false, "invalid": false,
	} {
		if got := isVersionDate(v); got != want {
			t.Errorf("isVersionDate(%q) = %v, want %v", v, got, want)
		}
	}
}
