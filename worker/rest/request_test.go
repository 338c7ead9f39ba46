package rest

import "testing"

func TestContainsFold(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"application/atom+xml", true}, {"Application/ATOM+XmL; type=entry", true}, {"xml", true},
		{"application/json", false}, {"xm", false}, {"", false}, {"x-m-l", false},
	} {
		if got := containsFold(tc.s, "xml"); got != tc.want {
			t.Errorf("containsFold(%q, \"xml\") = %v, want %v", tc.s, got, tc.want)
		}
	}
}
