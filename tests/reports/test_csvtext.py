"""The report kit's CSV dialect: what every track's CSV file is written with."""

from __future__ import annotations

import csv
import io

import pytest

from benchmark.reports.csvtext import csv_text, records_csv


def test_one_dialect_quoted_only_where_needed_with_newline_line_ends():
    text = csv_text(["provider", "note"], [["GPT, 4o", 'say "hi"'], ["Plain", 1.5]])
    assert text == 'provider,note\n"GPT, 4o","say ""hi"""\nPlain,1.5\n'
    assert list(csv.reader(io.StringIO(text))) == [
        ["provider", "note"],
        ["GPT, 4o", 'say "hi"'],
        ["Plain", "1.5"],
    ]


def test_records_follow_the_columns_and_a_stray_key_is_an_error():
    assert records_csv([{"b": 2, "a": 1}, {"a": 3}], ["a", "b"]) == "a,b\n1,2\n3,\n"
    with pytest.raises(ValueError, match="not in fieldnames"):
        records_csv([{"a": 1, "c": 2}], ["a", "b"])
