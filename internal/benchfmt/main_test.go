package main

import "testing"

func TestHuman(t *testing.T) {
	cases := map[string]string{"512": "512 ns", "1500": "1.5 µs", "2500000": "2.5 ms", "3200000000": "3.20 s", "x": "x"}
	for in, want := range cases {
		if got := human(in); got != want {
			t.Errorf("human(%s) = %s, want %s", in, got, want)
		}
	}
}
