package b

func B() {}
