import ArgumentParser
import Foundation
import LockSupport
import NumberFactConfig

/// The settings file of this run, read once: `$XDG_CONFIG_HOME/numberfact/config.toml`.
enum Settings {
  /// The file, read at first use; a missing file is every default.
  static let loaded: Result<AppConfig, AppConfigError> = {
    guard let path = AppConfig.defaultPath(environment: ProcessInfo.processInfo.environment)
    else { return .success(AppConfig()) }
    return Result { () throws(AppConfigError) in try AppConfig.load(path: path) }
  }()

  /// The settings; every default when the file is broken (the run then stops in ``check()``).
  static var config: AppConfig { (try? loaded.get()) ?? AppConfig() }

  private static let told = OnceFlag()

  /// Says what is wrong with the file, once: a broken file is one line on stderr and exit
  /// status 78 (EX_CONFIG); an unknown key is a warning and the run goes on.
  static func check() throws {
    let first = told.raise()
    switch loaded {
    case .failure(let error):
      if first { printError(error.description) }
      throw ExitCode(78)
    case .success(let config):
      if first { for warning in config.warnings { printError("warning: " + warning) } }
    }
  }
}
