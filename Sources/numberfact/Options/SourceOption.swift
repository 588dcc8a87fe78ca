import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// Where facts come from.
enum SourceOption: String, ExpressibleByArgument, CaseIterable {
  case auto, live, offline
}

extension FactKind: ExpressibleByArgument {}
