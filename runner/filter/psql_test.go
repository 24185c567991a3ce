package filter

import "testing"

func TestPsqlShapes(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"expanded", "-[ RECORD 1 ]----------\nid     | 1\nname   | Alice Martin\nemail  | \n-[ RECORD 2 ]----------\nid     | 2\nname   | Bob\nemail  | bob@example.com\n\n",
			"-[ RECORD 1 ]-\nid|1\nname|Alice Martin\nemail|\n-[ RECORD 2 ]-\nid|2\nname|Bob\nemail|bob@example.com\n"},
		// a wide character shifts the separators: that row stays as it was
		{"wide", " name | id \n------+----\n 東京 |  1\n ab   |  2\n(2 rows)\n\n",
			"name|id\n 東京 |  1\nab|2\n(2 rows)\n"},
		{"not a table", "INSERT 0 1\n", "INSERT 0 1\n"},
		{"single column", " count \n-------\n    40\n(1 row)\n\n", "count\n40\n(1 row)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := psql{}.Render(Input{Stdout: []byte(tc.in), Recall: func() string { return testRecall }})
			if err != nil {
				t.Fatal(err)
			}
			if string(out.Stdout) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out.Stdout, tc.want)
			}
		})
	}
}
