// swift-tools-version: 6.1
// An adopter's package: the toolkit by path, with only its swift-dependencies trait, and an
// executable that times the everyday style in the adopter's own debug build. It compiles the
// benchmark's Everyday.swift (a symbolic link), so both measure the same tests. `run` puts it
// beside a checkout named numberfact, builds it there and runs it.
import PackageDescription

let package = Package(
  name: "adopter-everyday",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "../numberfact", traits: ["SwiftDependencies"]),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
  ],
  targets: [
    .executableTarget(
      name: "adopter-everyday",
      dependencies: [
        .product(name: "TaskProviding", package: "numberfact"),
        .product(name: "TaskProvidingTesting", package: "numberfact"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ])
  ]
)
