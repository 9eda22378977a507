"""What the pages of the scripted games say: the list, a game's board in words, a phase's links
to the phases around it, and the Atom feed, one entry per phase with its results."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from judge.web.site import Site

ATOM = "{http://www.w3.org/2005/Atom}"


def _page(site: Site, path: str) -> str:
    answer = site.respond(path, "https://games.example.org")
    assert answer.status == 200, path
    return answer.body.decode()


def test_the_list_names_each_game_with_its_variant_board_phase_and_seats(site: Site) -> None:
    text = _page(site, "/")
    for name, variant in (("alpha", "Standard"), ("merc", "Mercator"), ("maze", "Algernon")):
        assert f'<a href="/games/{name}">{name}</a>' in text
        assert f'<a href="/variants/{variant.lower()}">{variant}</a>' in text
    assert "Standard Diplomacy" in text and "Mercator World" in text
    assert "a maze of its own" in text  # a maze's board is named by nothing of it
    assert '<th scope="row">Austria</th>' in text and "Player Alpha One" in text


def test_a_public_board_in_words_and_a_secret_one_without(site: Site) -> None:
    alpha = _page(site, "/games/alpha")
    assert "<h2>Supply centres</h2>" in alpha and "France (6):" in alpha
    assert "Army Portugal" in alpha and "<svg" in alpha
    assert "Results of S1902M" in alpha
    maze = _page(site, "/games/maze")
    assert "<h2>Units</h2>" not in maze and "<svg" not in maze
    assert "Results of S1902M" in maze  # the public report, as observers got it


def test_a_phase_links_to_the_phases_around_it(site: Site) -> None:
    first = _page(site, "/games/alpha/S1901M")
    assert 'rel="prev"' not in first and 'href="/games/alpha/F1901M"' in first
    fall = _page(site, "/games/alpha/F1901M")
    assert 'rel="prev" href="/games/alpha/S1901M"' in fall
    assert 'rel="next" href="/games/alpha/W1901A"' in fall
    assert "France: Army Spain -&gt; Portugal." in fall  # the results, escaped in the page


def test_the_feed_has_an_entry_per_phase_with_its_results(site: Site) -> None:
    answer = site.respond("/games/alpha/feed", "https://games.example.org")
    assert answer.content_type.startswith("application/atom+xml")
    feed = ET.fromstring(answer.body)
    entries = feed.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles == ["alpha S1902M", "alpha W1901A", "alpha F1901M", "alpha S1901M"]
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == 4 and all(i.startswith("tag:example.org,") for i in ids)
    links = [e.find(f"{ATOM}link").get("href") for e in entries]  # type: ignore[union-attr]
    assert links[-1] == "https://games.example.org/games/alpha/S1901M"
    fall = entries[2].findtext(f"{ATOM}content") or ""
    assert "France: Army Spain -> Portugal." in fall
