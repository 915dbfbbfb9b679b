print("safewalk CLI arrives with its issue")
