"""The site's generated pages, as an MkDocs hook (mkdocs.yml, `hooks:`).

Each command's reference page (reference/commands/COMMAND.md) is the built tool's own `--help`, with
that of its subcommands (those under "Commands:" and those the help names as 'tuner ... --help'), so
a page never says what the tool does not. The tool is $TUNER_BIN, else build/bin/tuner; without it
the build fails, naming what to build, rather than making empty pages. The commands come from
`tuner --help`, and mkdocs.yml's nav must list a page for each.

Run alone (python3 docs/gen_reference.py [DIR]) it prints the commands it finds, or writes the
pages into DIR, to look at them without MkDocs.
"""
import os
import re
import subprocess
import sys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*) {2,}(\S.*)$")
NAMED_HELP = re.compile(r"'tuner ([a-z0-9 -]+?) --help'")
# Pictures of the example reports (bench/examples/) that the pages show: site path -> repository path.
PICTURES = {
    "assets/matmul-h100-occupancy.svg":
        "bench/examples/matmul-h100-charts/matmul-h100-gpu-32d9e788-4096x4096x4096-occupancy.svg",
}


class ReferenceError(Exception):
    pass


def tool_path():
    path = os.environ.get("TUNER_BIN") or os.path.join(REPOSITORY, "build", "bin", "tuner")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ReferenceError(
            f"{path} is not built, and the command reference is made from its --help: build it first "
            "(scripts/build.sh, or cmake --build build --target tuner) or name the binary in TUNER_BIN")
    return path


def help_text(tool, words):
    # A fixed environment, so the pages name no path of the machine that built them (the default
    # database is shown as ~/.local/share/tuner/tuner.db).
    env = {key: value for key, value in os.environ.items()
           if key not in ("TUNER_DB", "TUNER_TEMPLATES", "XDG_DATA_HOME", "XDG_CACHE_HOME")}
    env["HOME"] = "~"
    done = subprocess.run([tool, *words, "--help"], capture_output=True, text=True, env=env)
    if done.returncode != 0 or not done.stdout.strip():
        raise ReferenceError(f"'tuner {' '.join(words)} --help' exited {done.returncode} with "
                             f"{len(done.stdout)} characters on stdout: {done.stderr.strip()}")
    return done.stdout.rstrip() + "\n"


def listed_commands(text):
    """(name, summary) of each line of the "Commands:" section."""
    if "\nCommands:\n" not in text:
        return []
    section = text.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    return [match.groups() for match in map(COMMAND_LINE.match, section.splitlines()) if match]


def subcommands(command, text):
    """The subcommands of a command's help: those it lists, then those it names as 'tuner ... --help'."""
    found = [[command, name] for name, _ in listed_commands(text)]
    for named in NAMED_HELP.findall(text):
        words = named.split()
        if words[0] == command and len(words) > 1 and words not in found and words[1].islower():
            found.append(words)
    return found


def command_page(tool, command, summary):
    text = help_text(tool, [command])
    parts = [f"# tuner {command}\n", f"{summary[0].upper()}{summary[1:]}.\n",
             "<!-- Made by docs/gen_reference.py from the tool's --help: edit the tool, not this page. -->\n",
             f"```text\n$ tuner {command} --help\n{text}```\n"]
    for words in subcommands(command, text):
        parts.append(f"## tuner {' '.join(words)}\n")
        parts.append(f"```text\n$ tuner {' '.join(words)} --help\n{help_text(tool, words)}```\n")
    return "\n".join(parts)


def reference_pages():
    """{site path: Markdown} of every command's page."""
    tool = tool_path()
    commands = listed_commands(help_text(tool, []))
    if not commands:
        raise ReferenceError(f"'{tool} --help' lists no commands")
    return {f"reference/commands/{name}.md": command_page(tool, name, summary) for name, summary in commands}


def nav_pages(nav):
    """Every page path named in mkdocs.yml's nav."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    return []


def on_files(files, config):
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    try:
        pages = reference_pages()
    except ReferenceError as error:
        raise PluginError(f"docs/gen_reference.py: {error}") from None
    missing = sorted(set(pages) - set(nav_pages(config["nav"])))
    if missing:
        raise PluginError(f"docs/gen_reference.py: mkdocs.yml's nav lacks {', '.join(missing)} "
                          "(commands of `tuner --help`)")
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    for path, source in PICTURES.items():
        files.append(File.generated(config, path, abs_src_path=os.path.join(REPOSITORY, source)))
    return files


def main():
    try:
        pages = reference_pages()
    except ReferenceError as error:
        sys.exit(f"gen_reference.py: {error}")
    if len(sys.argv) < 2:
        print("\n".join(sorted(pages)))
        return
    for path, content in pages.items():
        target = os.path.join(sys.argv[1], path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as out:
            out.write(content)


if __name__ == "__main__":
    main()
