import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// Writes `message` to stderr as one line prefixed with the command's name.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("numberfact: \(message)\n".utf8))
}
