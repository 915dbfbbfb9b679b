print("benchmark arrives with its issue")
