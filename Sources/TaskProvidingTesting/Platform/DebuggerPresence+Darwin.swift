#if canImport(Darwin)
  import Darwin

  /// On Darwin a traced process has `P_TRACED` among the flags `sysctl` reports for it
  /// (`CTL_KERN`, `KERN_PROC`, `KERN_PROC_PID`; `<sys/sysctl.h>` and `<sys/proc.h>`).
  func debuggerIsAttached() -> Bool {
    var info = kinfo_proc()
    var size = MemoryLayout<kinfo_proc>.stride
    var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
    let result = name.withUnsafeMutableBufferPointer { name in
      sysctl(name.baseAddress, u_int(name.count), &info, &size, nil, 0)
    }
    guard result == 0 else { return false }
    return info.kp_proc.p_flag & P_TRACED != 0
  }
#endif
