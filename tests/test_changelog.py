"""CHANGELOG.md follows Keep a Changelog and its newest release is the package's version; LICENSE is
the licence setup.cfg declares."""
import configparser
import re
from pathlib import Path

import ts_eval

ROOT = Path(__file__).parent.parent
SECTION = re.compile(r"^## \[([^\]]+)\](?: - (\S+))?\s*$", re.M)


def sections():
    return SECTION.findall((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def test_the_newest_release_in_the_changelog_is_the_package_version():
    found = sections()
    assert found[0] == ("Unreleased", "")
    releases = [version for version, _ in found[1:]]
    assert releases[0] == ts_eval.__version__
    assert releases == sorted(releases, key=version_key, reverse=True) and len(set(releases)) == len(releases)


def test_every_release_has_a_date_or_says_it_is_unreleased():
    for version, date in sections()[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date) or date == "Unreleased", (version, date)


def test_the_changelog_uses_keep_a_changelog_headings():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    kinds = set(re.findall(r"^### (.+?)\s*$", text, flags=re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


def test_the_licence_is_the_one_setup_cfg_declares():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    assert cfg["metadata"]["license"] == "MIT" and cfg["metadata"]["license_files"].strip() == "LICENSE"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the ts_eval developers" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
