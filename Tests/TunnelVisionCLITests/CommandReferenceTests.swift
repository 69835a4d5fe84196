import Foundation
import TestSupport
import XCTest

/// The man page and the completion scripts say what `--help` says, command by command: every
/// subcommand and option a command's help lists is in its section of the man page and among the
/// words its completion offers, and the page renders without a warning.
final class CommandReferenceTests: XCTestCase {
  /// A command's help: its subcommands and its options (long names).
  struct Help {
    var subcommands: [String] = []
    var options: [String] = []
  }

  func help(_ cli: CLIHarness, _ path: [String]) -> Help {
    let text = cli.run(path + ["--help"]).output
    var help = Help()
    var section = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasSuffix(":"), !line.hasPrefix(" ") { section = String(line) }
      let words = line.split(separator: " ")
      guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first else { continue }
      if section == "SUBCOMMANDS:", !first.hasPrefix("See") {
        help.subcommands.append(String(first))
      }
      // The option's name: the first word, or the second after a short one ("-o, --output").
      if section == "OPTIONS:" {
        let name = first.hasSuffix(",") && words.count > 1 ? words[1] : first
        if name.hasPrefix("--") { help.options.append(String(name)) }
      }
    }
    return help
  }

  /// Every command path, from the help's subcommand lists.
  func paths(_ cli: CLIHarness) -> [[String]] {
    var out: [[String]] = []
    func walk(_ path: [String]) {
      out.append(path)
      for sub in help(cli, path).subcommands { walk(path + [sub]) }
    }
    walk([])
    return out
  }

  func testTheManPageAndEveryCompletionSayWhatTheHelpOfEachCommandSays() throws {
    let cli = CLIHarness()
    let manual = cli.run("--generate-manual")
    XCTAssertEqual(manual.status, 0)
    let scripts = try ["bash", "zsh", "fish"].map { shell -> String in
      let run = cli.run("--generate-completion-script", shell)
      XCTAssertEqual(run.status, 0, shell)
      return try XCTUnwrap(run.output.isEmpty ? nil : run.output)
    }
    let all = paths(cli)
    XCTAssertGreaterThan(all.count, 30, "every command and subcommand")
    let roff = manual.output.replacingOccurrences(of: "\\-", with: "-")
    for path in all {
      let help = help(cli, path)
      XCTAssertFalse(help.options.isEmpty, "\(path)")
      if !path.isEmpty {
        let heading = ".SS \"\(path.joined(separator: " "))\""
        let section = try XCTUnwrap(
          roff.range(of: heading).map { roff[$0.upperBound...] }, "\(heading) in the man page")
        let body = section.components(separatedBy: ".SS ").first ?? ""
        for option in help.options where option != "--help" && option != "--store" {
          XCTAssertTrue(body.contains(option), "\(path) \(option) in the man page")
        }
      }
      // bash: the case of the path lists its words.
      let bashCase = "    \"\(path.joined(separator: " "))\") words=\""
      let line = try XCTUnwrap(
        scripts[0].split(separator: "\n").first { $0.hasPrefix(bashCase) }, "\(path) in bash")
      for word in help.subcommands + help.options {
        XCTAssertTrue(
          line.contains(" \(word)") || line.contains("\"\(word)"), "\(path) \(word) in bash")
      }
      let zshCase = "    \"\(path.joined(separator: " "))\") compadd -- "
      let zshLine = try XCTUnwrap(
        scripts[1].split(separator: "\n").first { $0.hasPrefix(zshCase) }, "\(path) in zsh")
      for word in help.subcommands + help.options {
        XCTAssertTrue(zshLine.contains(" \(word)"), "\(path) \(word) in zsh")
      }
      for sub in help.subcommands {
        XCTAssertTrue(scripts[2].contains(" -a \(sub) "), "\(path) \(sub) in fish")
      }
      for option in help.options where option != "--help" {
        XCTAssertTrue(
          scripts[2].contains(" -l \(option.dropFirst(2))"), "\(path) \(option) in fish")
      }
    }
    XCTAssertEqual(cli.run("--generate-completion-script", "csh").status, 2)
  }

  func testTheManPageRendersWithoutAWarningAndTheBashCompletionCompletes() throws {
    let cli = CLIHarness()
    let page = cli.directory.url.appendingPathComponent("tunnelvision.1")
    try Data(cli.run("--generate-manual").output.utf8).write(to: page)
    if ExternalTool.which("groff") != nil {
      let warnings = try XCTUnwrap(
        ExternalTool.run("groff", ["-man", "-Tutf8", "-ww", "-z", page.path]))
      XCTAssertEqual(warnings.error, "", "groff's warnings")
    }
    let script = cli.directory.url.appendingPathComponent("tunnelvision.bash")
    try Data(cli.run("--generate-completion-script", "bash").output.utf8).write(to: script)
    let completed = try XCTUnwrap(
      ExternalTool.run(
        "bash",
        [
          "-c",
          "source \"$0\"; COMP_WORDS=(tunnelvision session start P --c); COMP_CWORD=4; _tunnelvision; echo \"${COMPREPLY[*]}\"",
          script.path,
        ]))
    XCTAssertEqual(completed.output, "--ca --ca-trusted\n", completed.error)
  }
}
