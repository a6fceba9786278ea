"""The ``playtest`` command line (serve's arguments; the browser tests start it for real)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import playtest
import playtest.server
from playtest.cli import DASHBOARDS_DIR, NOTEBOOKS_DIR, main, server_arguments


def test_serve_binds_to_localhost_on_the_given_port_and_never_wanders(tmp_path):
    args = server_arguments(tmp_path, 9123, "127.0.0.1")
    assert args[0] == str(tmp_path) and "--no-browser" in args
    assert "--port=9123" in args and "--Voila.ip=127.0.0.1" in args
    assert "--Voila.port_retries=0" in args        # the printed URL is the real one


def test_serve_without_dashboards_says_where_it_looked(tmp_path, capsys):
    assert main(["serve", "--dir", str(tmp_path)]) == 2
    assert str(tmp_path / "index.ipynb") in capsys.readouterr().err


def test_the_kits_dashboards_and_notebooks_are_in_the_package():
    package = Path(playtest.__file__).parent
    assert DASHBOARDS_DIR == package / "dashboards" and (DASHBOARDS_DIR / "index.ipynb").is_file()
    assert NOTEBOOKS_DIR == package / "notebooks" and (NOTEBOOKS_DIR / "lazy_sunday_rules.ipynb").is_file()


@pytest.fixture
def started(monkeypatch):
    """Run ``playtest serve`` up to the server's start: returns the arguments the server
    got (the server itself is not started); the scenarios folder is unset before."""
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", "unset")
    monkeypatch.delenv("PLAYTEST_SCENARIOS_DIR")
    given = []
    monkeypatch.setattr(playtest.server, "main", lambda argv: given.append(argv) or 0)
    return given


def test_serve_serves_the_kits_dashboards_from_any_folder_and_reads_scenarios_there(tmp_path, monkeypatch,
                                                                                   started, capsys):
    (tmp_path / "dashboards").mkdir()             # a ./dashboards of the user's is not served
    (tmp_path / "dashboards" / "index.ipynb").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", str(free_port())]) == 0
    assert started[0][0] == str(DASHBOARDS_DIR)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (f"playtest serve: serving the kit's dashboards (playtest {playtest.__version__}); "
                     f"your scenario files: {tmp_path / 'scenarios'}")
    assert os.environ["PLAYTEST_SCENARIOS_DIR"] == str(tmp_path / "scenarios")


def test_serve_dir_serves_the_users_folder_and_says_so_first(tmp_path, started, capsys):
    (tmp_path / "index.ipynb").write_text("{}")
    assert main(["serve", "--dir", str(tmp_path), "--port", str(free_port())]) == 0
    assert started[0][0] == str(tmp_path)
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (f"playtest serve: serving your own folder {tmp_path} (--dir), not the kit's dashboards; "
                     f"your scenario files: {tmp_path / 'scenarios'}")


def free_port() -> int:
    import socket
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def test_version_is_the_packages(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"playtest {playtest.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", playtest.__version__)


def test_notebooks_copies_the_tutorials_into_a_new_folder(tmp_path, capsys):
    target = tmp_path / "course" / "week1"
    assert main(["notebooks", str(target)]) == 0
    names = sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))
    assert len(names) == 5 and sorted(p.name for p in target.iterdir()) == names
    for name in names:
        assert (target / name).read_bytes() == (NOTEBOOKS_DIR / name).read_bytes()
    assert f"Copied 5 tutorial notebooks into {target}" in capsys.readouterr().out


def test_notebooks_never_overwrites_and_then_copies_nothing(tmp_path, capsys):
    (tmp_path / "lazy_sunday_rules.ipynb").write_text("my edits")
    assert main(["notebooks", str(tmp_path)]) == 1
    assert "already holds lazy_sunday_rules.ipynb; nothing copied" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["lazy_sunday_rules.ipynb"]
    assert (tmp_path / "lazy_sunday_rules.ipynb").read_text() == "my edits"
    (tmp_path / "file").write_text("")
    assert main(["notebooks", str(tmp_path / "file")]) == 2
    assert "is a file; name a folder" in capsys.readouterr().err


def test_console_script_help_lists_serve():
    out = subprocess.run([sys.executable, "-m", "playtest.cli", "serve", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--port" in out and "127.0.0.1" in out


def test_serve_refuses_a_port_out_of_range(capsys):
    import pytest
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", "99999"])
    assert exit_.value.code == 2 and "use a whole number 1 to 65535 (a TCP port)" in capsys.readouterr().err


def test_serve_refuses_a_busy_port_before_printing_its_address(capsys):
    import socket
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    captured = capsys.readouterr()
    assert f"cannot listen on 127.0.0.1:{port}" in captured.err and "Open http" not in captured.out


def test_serve_crowd_keeps_that_many_pages_ready_and_refuses_a_bad_number(tmp_path, capsys):
    import pytest
    assert "--PlaytestVoila.crowd=8" in server_arguments(tmp_path, 9123, "127.0.0.1", crowd=8)
    assert not any(a.startswith("--PlaytestVoila.crowd") for a in server_arguments(tmp_path, 9123, "127.0.0.1"))
    for bad in ("-1", "many", "33", "\u0663"):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", "--crowd", bad])
        assert exit_.value.code == 2 and "whole number 0 to 32 (pages at once;" in capsys.readouterr().err


def test_serve_base_url_puts_every_address_under_a_path_and_refuses_a_bad_one(tmp_path, capsys):
    import pytest

    from playtest.arguments import base_url_path
    assert "--Voila.base_url=/user/ab/playtest/" in server_arguments(tmp_path, 9123, "127.0.0.1",
                                                                       base_url="/user/ab/playtest/")
    assert not any(a.startswith("--Voila.base_url") for a in server_arguments(tmp_path, 9123, "127.0.0.1"))
    assert base_url_path("user/ab/playtest") == "/user/ab/playtest/" and base_url_path("/") == "/"
    for bad in ("/a b/", "/<script>/", "/x?y=1", "/../"):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", "--base-url", bad])
        assert exit_.value.code == 2 and "is not a URL path like /user/ab/playtest/" in capsys.readouterr().err


def test_serve_allow_origin_is_passed_on_and_a_bad_one_refused(tmp_path, capsys):
    import pytest

    from playtest.arguments import origin
    from playtest.server.app import PlaytestVoila
    args = server_arguments(tmp_path, 9123, "127.0.0.1", allow_origins=["https://games.example.org", "*"])
    app = PlaytestVoila()
    app.parse_command_line(args)
    assert app.allow_origins == ["https://games.example.org", "*"]
    assert origin("http://192.168.1.5:8866/") == "http://192.168.1.5:8866"
    for bad in ("games.example.org", "https://games.example.org/lobby", "javascript:alert(1)"):
        with pytest.raises(SystemExit):
            main(["serve", "--dir", str(tmp_path), "--allow-origin", bad])
        assert "is not an origin like https://games.example.org" in capsys.readouterr().err
