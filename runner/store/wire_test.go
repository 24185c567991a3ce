package store

import "github.com/gotk-dev/gotk/runner/store/driver"

func init() { UseDriver(driver.Code, driver.PersistWAL) }
