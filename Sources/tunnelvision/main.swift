import Foundation
import TunnelVisionCLI

setlocale(LC_NUMERIC, "C")
exit(TunnelVisionCommand.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
